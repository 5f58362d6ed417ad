import { AppstoreOutlined, CheckSquareOutlined, ExperimentOutlined, FolderOutlined } from '@ant-design/icons';
import { Card, Col, Row, Statistic } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  availableImages: number | null;
  folders: number | null;
  selected: number;
  /** ready lab models, offered beside the default engine */
  labModels: number;
}

function Tile({
  title,
  value,
  icon,
  testId,
}: {
  title: string;
  value: number | null;
  icon: ReactNode;
  testId: string;
}) {
  return (
    <Col xs={12} md={6}>
      <Card size="small" className="prediction-tile" data-testid={testId}>
        <Statistic title={title} value={value ?? '--'} prefix={icon} />
      </Card>
    </Col>
  );
}

/**
 * Spec sections 2 and 9: the default engine is always offered, so the tile shows 1 from the first paint; each
 * ready lab model adds one.
 */
const MODELS_AVAILABLE = 1;

/** The four statistic tiles of the prediction screen. */
export function PredictionStats({ availableImages, folders, selected, labModels }: Props) {
  const { t } = useTranslation('prediction');
  return (
    <Row gutter={[12, 12]} className="prediction-tiles">
      <Tile
        testId="tile-images"
        title={t('stats.available_images')}
        value={availableImages}
        icon={<AppstoreOutlined />}
      />
      <Tile testId="tile-folders" title={t('stats.folders')} value={folders} icon={<FolderOutlined />} />
      <Tile
        testId="tile-models"
        title={t('stats.models')}
        value={MODELS_AVAILABLE + labModels}
        icon={<ExperimentOutlined />}
      />
      <Tile testId="tile-selected" title={t('stats.selected')} value={selected} icon={<CheckSquareOutlined />} />
    </Row>
  );
}
