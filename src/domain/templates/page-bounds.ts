/** A PDF page is at most 14,400 points (200 inches) a side, so no field that fits a page is larger or further out. */
export const MAX_PAGE_POINTS = 14_400;
/** More pages than any document a template is made from; it keeps the number well inside a database integer. */
export const MAX_FIELD_PAGE = 10_000;
