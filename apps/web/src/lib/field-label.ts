/** A sample field by its translated name (a well-known one: "Days after harvest" for dah), any other by its own. */
export function fieldLabel(t: (key: string, options?: Record<string, unknown>) => string, field: string): string {
  return t(`samples:field.${field}`, { defaultValue: field });
}
