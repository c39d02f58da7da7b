import type { ReactNode, SVGProps } from 'react';

/** Small line icons for the landing page; decorative, so hidden from assistive technology. */
function Icon({ children, ...props }: SVGProps<SVGSVGElement> & { children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

export const PrintIcon = () => (
  <Icon>
    <path d="M7 9V3h10v6" />
    <rect x="3" y="9" width="18" height="8" rx="2" />
    <path d="M7 14h10v7H7z" />
    <path d="M17.5 12h.01" />
  </Icon>
);

export const QrIcon = () => (
  <Icon>
    <rect x="3" y="3" width="7" height="7" rx="1" />
    <rect x="14" y="3" width="7" height="7" rx="1" />
    <rect x="3" y="14" width="7" height="7" rx="1" />
    <path d="M14 14h3v3M21 14v.01M14 21h3M20 18v3M17 20.5v.01" />
  </Icon>
);

export const FootprintIcon = () => (
  <Icon>
    <path d="M4 8V4h4M16 4h4v4M20 16v4h-4M8 20H4v-4" />
    <rect x="8.5" y="8.5" width="7" height="7" rx="1" />
  </Icon>
);

export const WalletIcon = () => (
  <Icon>
    <path d="M3 7a2 2 0 0 1 2-2h12v4" />
    <rect x="3" y="9" width="18" height="11" rx="2" />
    <path d="M16 14.5h.01" />
    <path d="M8 12l3 3M11 12l-3 3" />
  </Icon>
);

export const CalendarIcon = () => (
  <Icon>
    <rect x="3" y="5" width="18" height="16" rx="2" />
    <path d="M8 3v4M16 3v4M3 10h18" />
    <path d="M9 15l2 2 4-4" />
  </Icon>
);

export const HeartIcon = () => (
  <Icon>
    <path d="M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10z" />
  </Icon>
);

export const MailIcon = () => (
  <Icon>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="M3 7l9 6 9-6" />
  </Icon>
);

export const PinIcon = () => (
  <Icon>
    <path d="M12 21s-7-6.2-7-11.5A7 7 0 0 1 19 9.5C19 14.8 12 21 12 21z" />
    <circle cx="12" cy="9.5" r="2.5" />
  </Icon>
);

export const ArrowUpIcon = () => (
  <Icon strokeWidth="2.2">
    <path d="M12 19V5M5 12l7-7 7 7" />
  </Icon>
);

export const ChevronIcon = ({ direction }: { direction: 'left' | 'right' }) => (
  <Icon strokeWidth="2.2">
    <path d={direction === 'left' ? 'M15 18l-6-6 6-6' : 'M9 18l6-6-6-6'} />
  </Icon>
);

export const PlayIcon = () => (
  <Icon>
    <path d="M8 5v14l11-7z" fill="currentColor" />
  </Icon>
);

export const PauseIcon = () => (
  <Icon>
    <path d="M8 5v14M16 5v14" strokeWidth="3" />
  </Icon>
);

export const CloseIcon = () => (
  <Icon strokeWidth="2.2">
    <path d="M6 6l12 12M18 6L6 18" />
  </Icon>
);

export const CheckIcon = () => (
  <Icon strokeWidth="2.4">
    <path d="M5 12.5l4.5 4.5L19 7.5" />
  </Icon>
);
