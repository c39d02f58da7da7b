import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { BrandLogo } from './brand-logo';
import { NavIcon } from './nav-icons';
import { isTabActive, splitTabs, type NavTab } from './nav-model';
import { useIsNarrow } from './use-narrow';

function TabLink({ tab, pathname }: { tab: NavTab; pathname: string }) {
  const active = isTabActive(pathname, tab.path);
  return (
    <Link
      to={tab.path}
      className={active ? 'nav-tab is-active' : 'nav-tab'}
      aria-current={active ? 'page' : undefined}
    >
      <NavIcon name={tab.icon} />
      <span className="nav-label">{tab.label}</span>
    </Link>
  );
}

/**
 * The narrow-screen "More" menu. It is open only for the path it was opened on, so any route
 * change closes it without an effect; outside clicks and Escape close it too.
 */
function MoreMenu({ tabs, pathname }: { tabs: NavTab[]; pathname: string }) {
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === pathname;
  const wrapperRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);
  const menuId = useId();
  const activeInside = tabs.some((tab) => isTabActive(pathname, tab.path));

  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!wrapperRef.current?.contains(event.target as Node)) setOpenAt(null);
    };
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpenAt(null);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const onMenuKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const items = Array.from(
      menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [],
    );
    if (items.length === 0) return;
    const index = items.indexOf(document.activeElement as HTMLElement);
    let next: number | null = null;
    if (event.key === 'ArrowDown') next = (index + 1) % items.length;
    else if (event.key === 'ArrowUp') next = (index - 1 + items.length) % items.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = items.length - 1;
    else if (event.key === 'Tab') setOpenAt(null);
    if (next !== null) {
      event.preventDefault();
      items[next]?.focus();
    }
  };

  return (
    <div className="nav-more" ref={wrapperRef}>
      <button
        ref={buttonRef}
        type="button"
        className={activeInside ? 'nav-tab is-active' : 'nav-tab'}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpenAt(open ? null : pathname)}
      >
        <NavIcon name="more" />
        <span className="nav-label">More</span>
      </button>
      {open && (
        <ul
          ref={menuRef}
          id={menuId}
          className="nav-menu"
          role="menu"
          aria-label="More pages"
          onKeyDown={onMenuKeyDown}
        >
          {tabs.map((tab) => {
            const active = isTabActive(pathname, tab.path);
            return (
              <li key={tab.path} role="none">
                <Link
                  to={tab.path}
                  role="menuitem"
                  className={active ? 'nav-menu-item is-active' : 'nav-menu-item'}
                  aria-current={active ? 'page' : undefined}
                  onClick={() => setOpenAt(null)}
                >
                  <NavIcon name={tab.icon} />
                  <span>{tab.label}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/** Fixed bottom navigation bar (spec: App shell, Navigation bar). */
export function BottomNav({ tabs, pathname }: { tabs: NavTab[]; pathname: string }) {
  const narrow = useIsNarrow();
  const { direct, overflow } = splitTabs(tabs, narrow);
  return (
    <nav className="bottom-nav" aria-label="Main" data-testid="bottom-nav">
      <div className="bottom-nav-inner">
        <BrandLogo size={30} showWordmark={!narrow} className="bottom-nav-logo" />
        <ul className="bottom-nav-tabs">
          {direct.map((tab) => (
            <li key={tab.path}>
              <TabLink tab={tab} pathname={pathname} />
            </li>
          ))}
          {overflow.length > 0 && (
            <li>
              <MoreMenu tabs={overflow} pathname={pathname} />
            </li>
          )}
        </ul>
      </div>
    </nav>
  );
}
