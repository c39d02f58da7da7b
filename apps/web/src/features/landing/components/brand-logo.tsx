/** The Flashbooth mark and wordmark (the mark is the favicon artwork). */
export function BrandLogo({ inverse = false }: { inverse?: boolean }) {
  return (
    <span className={inverse ? 'lp-logo lp-logo-inverse' : 'lp-logo'}>
      <img src="/favicon.svg" alt="" width="32" height="32" />
      <span className="lp-logo-word">Flashbooth</span>
    </span>
  );
}
