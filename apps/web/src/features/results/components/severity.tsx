import { CheckCircleFilled, ExclamationCircleFilled, WarningFilled } from '@ant-design/icons';
import { severityOf, type Severity } from '@cassavascope/contract';
import { SEVERITY_COLOURS } from '../../../lib/ppd';

/** A result's band; a failed result (no PPD) has none. */
export function bandOf(ppd: number | null): Severity | null {
  return ppd === null ? null : severityOf(ppd);
}

export function SeverityIcon({ severity }: { severity: Severity }) {
  const style = { color: SEVERITY_COLOURS[severity] };
  if (severity === 'severe') return <ExclamationCircleFilled style={style} />;
  if (severity === 'mild') return <WarningFilled style={style} />;
  return <CheckCircleFilled style={style} />;
}
