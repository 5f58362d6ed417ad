import { CloseOutlined, DownloadOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Segmented, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { ResultView } from '../../../lib/normalize-result';
import { formatPpd } from '../../../lib/ppd';

interface Props {
  result: ResultView | null;
  index: number;
  count: number;
  onNavigate: (index: number) => void;
  onClose: () => void;
}

type Layer = 'original' | 'result';

/**
 * Full-screen preview above the detail modal: previous/next wrap around the whole filter, download link,
 * Escape closes only the preview, Left/Right navigate.
 */
export function FullScreenPreview({ result, index, count, onNavigate, onClose }: Props) {
  const { t } = useTranslation('results');
  const [layer, setLayer] = useState<Layer>('original');
  const prev = () => onNavigate((index - 1 + count) % count);
  const next = () => onNavigate((index + 1) % count);

  useEffect(() => {
    // Capture phase, so the Escape does not also close the detail modal underneath.
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
      else if (e.key === 'ArrowLeft') prev();
      else if (e.key === 'ArrowRight') next();
      else return;
      e.preventDefault();
      e.stopImmediatePropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  });

  const src = result
    ? layer === 'result'
      ? (result.overlayImageUrl ?? result.originalImageUrl)
      : (result.originalImageUrl ?? result.overlayImageUrl)
    : null;
  return createPortal(
    <div
      className="result-preview"
      role="dialog"
      aria-modal="true"
      aria-label={t('preview.title')}
      data-testid="result-fullscreen"
    >
      <div className="result-preview-bar">
        <span className="result-preview-name">{result?.imageName ?? ''}</span>
        <span className="result-preview-position" data-testid="preview-position">
          {index + 1} / {count}
        </span>
        {result && <span className="result-preview-ppd">PPD {formatPpd(result.ppdValue)}</span>}
        <Segmented<Layer>
          size="small"
          value={layer}
          onChange={setLayer}
          options={[
            { value: 'original', label: t('preview.original') },
            { value: 'result', label: t('preview.result') },
          ]}
        />
        {src && result && (
          <a className="result-preview-button" href={src} download={result.imageName} data-testid="preview-download">
            <DownloadOutlined /> {t('preview.download')}
          </a>
        )}
        <button type="button" className="result-preview-button" onClick={onClose} aria-label={t('preview.close')}>
          <CloseOutlined />
        </button>
      </div>
      <button type="button" className="result-preview-nav is-prev" onClick={prev} aria-label={t('preview.previous')}>
        <LeftOutlined />
      </button>
      <div className="result-preview-stage">
        {src ? <img src={src} alt={result?.imageName ?? ''} /> : <Spin size="large" />}
      </div>
      <button type="button" className="result-preview-nav is-next" onClick={next} aria-label={t('preview.next')}>
        <RightOutlined />
      </button>
    </div>,
    document.body,
  );
}
