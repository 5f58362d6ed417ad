import { severityOf, type Severity } from '@cassavascope/contract';

/** Colours of the severity bands, used wherever a PPD value is shown (green < 4, yellow 4 to < 7, red >= 7). */
export const SEVERITY_COLOURS: Record<Severity, string> = {
  healthy: '#389e0d',
  mild: '#d4a106',
  severe: '#cf1322',
};

function isPpd(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** The band colour of a PPD value, or null when there is none (shown as "--"). */
export function ppdColour(value: number | null | undefined): string | null {
  return isPpd(value) ? SEVERITY_COLOURS[severityOf(value)] : null;
}

/** PPD with 2 decimals, "--" when missing. */
export function formatPpd(value: number | null | undefined): string {
  return isPpd(value) ? value.toFixed(2) : '--';
}
