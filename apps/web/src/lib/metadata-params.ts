/** One `meta.FIELD=VALUE` filter (issue 17), or none. Kept apart from the filter's component so fetchers need no antd. */
export type MetadataFilterValue = { field: string; value: string } | null;

/** The query parameters of a filter: `{"meta.genotype": "TME419"}`, or nothing. */
export function metaParams(filter: MetadataFilterValue): Record<string, string> {
  return filter ? { [`meta.${filter.field}`]: filter.value } : {};
}
