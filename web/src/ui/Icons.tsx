import type { SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement>;

export function BurgerIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" {...props}>
      <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export function ImagePlaceholderIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 24 24" width="28" height="28" role="img" aria-label="No image" {...props}>
      <rect x="3" y="4" width="18" height="16" rx="3" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <circle cx="9" cy="10" r="1.8" fill="currentColor" />
      <path d="M4 18l5-5 4 4 3-3 4 4" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" />
    </svg>
  );
}

export function LogoMark(props: IconProps) {
  return (
    <svg viewBox="0 0 64 64" width="30" height="30" aria-hidden="true" {...props}>
      <rect width="64" height="64" rx="14" fill="#1f2a44" />
      <path d="M12 40h40" stroke="#f5b942" strokeWidth="5" strokeLinecap="round" />
      <path d="M32 40 22 52h20z" fill="#f5b942" />
      <circle cx="19" cy="32" r="6" fill="#7dd3c0" />
      <rect x="39" y="26" width="12" height="12" rx="3" fill="#7dd3c0" />
    </svg>
  );
}
