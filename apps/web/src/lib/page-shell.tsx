import { Typography } from 'antd';
import type { ReactNode } from 'react';

interface Props {
  /** the section's name: the page is `page NAME-page`, its header `page-head NAME-header` (the section's styles) */
  name: string;
  title: ReactNode;
  /** drawn before the title */
  icon?: ReactNode;
  subtitle: ReactNode;
  /** buttons at the header's end (they wrap below the title on a narrow screen) */
  actions?: ReactNode;
  children?: ReactNode;
}

/** A section's page: its width and padding, the header every section has (title, subtitle, actions), its body. */
export function PageShell({ name, title, icon, subtitle, actions, children }: Props) {
  return (
    <div className={`page ${name}-page`}>
      <header className={`page-head ${name}-header`}>
        <div className="page-head-text">
          <Typography.Title level={2}>
            {icon ? <>{icon} </> : null}
            {title}
          </Typography.Title>
          <Typography.Paragraph type="secondary" className="page-head-subtitle">
            {subtitle}
          </Typography.Paragraph>
        </div>
        {actions ? <div className="page-head-actions">{actions}</div> : null}
      </header>
      {children}
    </div>
  );
}
