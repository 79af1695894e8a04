import { escapeHtml as e } from "./escape";

/** Roughly how wide a text is in 11px Verdana (the shields.io look), in px. */
const width = (text: string): number =>
  Math.round(
    [...text].reduce(
      (w, ch) => w + (/[ilj.,:;!|' ]/.test(ch) ? 3.5 : /[mwMW%@]/.test(ch) ? 9.5 : /[A-Z0-9]/.test(ch) ? 7.5 : 6.5),
      0,
    ),
  ) + 10;

/** A flat two-part SVG badge: label on grey, value on its colour; titled for screen readers. */
export function badgeSvg(label: string, value: string, colour: string): string {
  const [lw, vw] = [width(label), width(value)];
  const total = lw + vw;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="20" role="img" aria-label="${e(`${label}: ${value}`)}">
<title>${e(`${label}: ${value}`)}</title><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${vw}" height="20" fill="${e(colour)}"/>
<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11"><text x="${lw / 2}" y="14">${e(label)}</text><text x="${lw + vw / 2}" y="14">${e(value)}</text></g></svg>
`;
}
