import { Empty, type EmptyProps } from 'antd';
import type { ReactNode } from 'react';

interface Props extends Omit<EmptyProps, 'description'> {
  /** what is (not) there, in bold */
  title: ReactNode;
  /** what to do about it, on the line below */
  hint?: ReactNode;
  /** `data-testid` of the state */
  testId?: string;
  /** what the state offers (a button) */
  children?: ReactNode;
}

/**
 * A list or screen with nothing to show: a bold line saying why, a hint below it and, as children, what to do
 * (create the first item, clear the search). Other attributes (`className`, `image`, `data-*`) go to Ant Design's
 * `Empty`.
 */
export function EmptyState({ title, hint, testId, children, ...rest }: Props) {
  return (
    <Empty
      {...rest}
      data-testid={testId}
      description={
        <>
          <strong>{title}</strong>
          {hint === undefined ? null : <div>{hint}</div>}
        </>
      }
    >
      {children}
    </Empty>
  );
}
