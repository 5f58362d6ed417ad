import { Checkbox, Empty, Input, Select, Skeleton, Spin, Tag, App } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Virtuoso } from 'react-virtuoso';
import {
  getAllImageRefs,
  IMAGE_PAGE_SIZE,
  usePredictionImages,
  type ImageFilter,
  type ImageSort,
} from '../api/get-prediction-images';
import { formatCount } from '../../../lib/format';
import { useLiveSearch } from '../../../lib/use-live-search';
import type { PredictionSelection } from '../hooks/use-prediction-selection';

const ROW_HEIGHT = 56;

function ImageRow({
  index,
  filter,
  selection,
}: {
  index: number;
  filter: ImageFilter;
  selection: PredictionSelection;
}) {
  const { t } = useTranslation('prediction');
  const page = Math.floor(index / IMAGE_PAGE_SIZE) + 1;
  const { data } = usePredictionImages(filter, page);
  const image = data?.items[index % IMAGE_PAGE_SIZE];
  if (!image) {
    return (
      <div className="prediction-image-row" style={{ height: ROW_HEIGHT }}>
        <Skeleton.Avatar active shape="square" size={40} />
        <Skeleton.Input active size="small" />
      </div>
    );
  }
  const checked = selection.isImageSelected(image.id);
  return (
    <label className={`prediction-image-row${checked ? ' is-checked' : ''}`} style={{ height: ROW_HEIGHT }}>
      <Checkbox
        checked={checked}
        onChange={(e) => selection.toggleImage({ id: image.id, folderId: image.folderId }, e.target.checked)}
        aria-label={t('images.pick', { name: image.name })}
      />
      <img className="prediction-image-thumb" src={image.thumbnailUrl} alt="" loading="lazy" width={40} height={40} />
      <span className="prediction-image-name" title={image.name}>
        {image.name}
      </span>
      <Tag className="prediction-image-format">{image.format.toUpperCase()}</Tag>
    </label>
  );
}

interface Props {
  filter: ImageFilter;
  onFilterChange: (filter: ImageFilter) => void;
  selection: PredictionSelection;
}

/** Typing pauses this long before the search applies. */
/** Image search and sort, select all, and the virtualised checklist (thumbnail, name, format). */
export function ImageChecklist({ filter, onFilterChange, selection }: Props) {
  const { t } = useTranslation('prediction');
  const { message } = App.useApp();
  const client = useQueryClient();
  const first = usePredictionImages(filter, 1, true);
  const count = first.data?.count ?? 0;
  const [selectingAll, setSelectingAll] = useState(false);
  const [allRefs, setAllRefs] = useState<{ key: string; ids: number[] } | null>(null);
  const filterKey = JSON.stringify(filter);
  // Live search (issue 15 item 10): the list follows the typing once it pauses, as on Images and Tasks.
  const [searchInput, setSearchInput] = useLiveSearch(filter, onFilterChange);

  // "Select all" covers every image of the current filter, not only the rows on screen.
  const knownIds =
    allRefs?.key === filterKey
      ? allRefs.ids
      : first.data?.items.length === count
        ? first.data.items.map((i) => i.id)
        : null;
  const selectedHere = knownIds ? knownIds.filter((id) => selection.isImageSelected(id)).length : 0;
  const allChecked = knownIds !== null && knownIds.length > 0 && selectedHere === knownIds.length;

  const onSelectAll = async (checked: boolean) => {
    setSelectingAll(true);
    try {
      const refs = await getAllImageRefs(client, filter);
      setAllRefs({ key: filterKey, ids: refs.map((r) => r.id) });
      selection.setManyImages(refs, checked);
    } catch {
      message.error(t('errors.load_images'));
    } finally {
      setSelectingAll(false);
    }
  };

  return (
    <div className="prediction-images">
      <div className="prediction-images-toolbar">
        <Input.Search
          allowClear
          placeholder={t('images.search')}
          aria-label={t('images.search')}
          value={searchInput}
          onChange={(e) => setSearchInput(e.target.value)}
          onSearch={(search) => {
            setSearchInput(search);
            if (search !== filter.search) onFilterChange({ ...filter, search });
          }}
          className="prediction-images-search"
        />
        <Select<ImageSort>
          value={filter.sort}
          onChange={(sort) => onFilterChange({ ...filter, sort })}
          aria-label={t('images.sort')}
          className="prediction-images-sort"
          options={[
            { value: 'date', label: t('images.sort_date') },
            { value: 'name', label: t('images.sort_name') },
            { value: 'size', label: t('images.sort_size') },
          ]}
        />
      </div>
      <div className="prediction-images-bar">
        <Checkbox
          checked={allChecked}
          indeterminate={!allChecked && selectedHere > 0}
          disabled={count === 0 || selectingAll}
          onChange={(e) => void onSelectAll(e.target.checked)}
          data-testid="select-all"
        >
          {t('images.select_all')}
        </Checkbox>
        {selectingAll && <Spin size="small" />}
        <span className="prediction-images-count">{t('images.count', { count, formatted: formatCount(count) })}</span>
      </div>
      {first.isLoading ? (
        <div className="prediction-images-empty">
          <Spin />
        </div>
      ) : count === 0 ? (
        <Empty className="prediction-images-empty" description={t('images.empty')} />
      ) : (
        <Virtuoso
          className="prediction-image-list"
          data-testid="prediction-image-list"
          totalCount={count}
          fixedItemHeight={ROW_HEIGHT}
          computeItemKey={(index) => `${filterKey}:${index}`}
          itemContent={(index) => <ImageRow index={index} filter={filter} selection={selection} />}
        />
      )}
    </div>
  );
}
