/** Static marketing content for the brochure landing page. */

export interface NavSection {
  id: string;
  label: string;
}

/** Sections linked from the sticky nav, in page order (spec: Benefits, Branding, Experience, Technology). */
export const NAV_SECTIONS: readonly NavSection[] = [
  { id: 'benefits', label: 'Benefits' },
  { id: 'branding', label: 'Branding' },
  { id: 'experience', label: 'Experience' },
  { id: 'technology', label: 'Technology' },
];

/** Every section of the page in order; used to work out which one is in view. */
export const SECTION_IDS: readonly string[] = [
  'hero',
  'benefits',
  'branding',
  'experience',
  'technology',
  'contact',
];

export interface TemplateSample {
  src: string;
  alt: string;
  title: string;
  caption: string;
  width: number;
  height: number;
}

export const TEMPLATE_SAMPLES: readonly TemplateSample[] = [
  {
    src: '/landing/template-wedding.svg',
    alt: 'Wedding template: three photos of a couple on a blush and gold frame titled “Aisha & Rohan”.',
    title: 'Wedding',
    caption: 'Landscape, three photos, names and date in gold script.',
    width: 600,
    height: 400,
  },
  {
    src: '/landing/template-cafe.svg',
    alt: 'Café template: one large photo of friends over coffee beside a “Brew & Bloom” branded panel.',
    title: 'Café',
    caption: 'One large print with your logo, tagline and social handle.',
    width: 600,
    height: 400,
  },
  {
    src: '/landing/template-festival.svg',
    alt: 'Festival template: two neon photo strips with three photos each, titled “Monsoon Beats 2025”.',
    title: 'Festival',
    caption: 'Portrait, six photos on two strips: one to keep, one to share.',
    width: 400,
    height: 600,
  },
  {
    src: '/landing/template-corporate.svg',
    alt: 'Corporate event template: a team photo and two smaller photos under a “Northwind Summit 2025” header.',
    title: 'Corporate event',
    caption: 'Portrait, hero team shot plus two candids and your event hashtag.',
    width: 400,
    height: 600,
  },
];

/** Carousel interval from the spec. */
export const CAROUSEL_INTERVAL_MS = 3500;

/** The scroll-to-top button appears after this much scroll (spec). */
export const SCROLL_TOP_THRESHOLD_PX = 400;

export const POSTAL_ADDRESS: readonly string[] = [
  'Flashbooth Studios',
  '3rd Floor, 80 Feet Road, Koramangala',
  'Bengaluru, Karnataka 560034',
  'India',
];
