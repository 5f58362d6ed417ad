import { lazy, Suspense } from 'react';
import { closeLabelPainter, useLabelPainterRequest } from '../../lib/label-painter';

/** The painter is its own chunk: it loads the first time someone opens it. */
const LabelPainter = lazy(() => import('./components/label-painter'));

/** Mounted once by the shell: shows the painter over any screen that asked for it (lib/label-painter.ts). */
export function LabelPainterHost() {
  const request = useLabelPainterRequest();
  if (!request) return null;
  return (
    <Suspense fallback={null}>
      <LabelPainter key={request.imageId} request={request} onClose={closeLabelPainter} />
    </Suspense>
  );
}
