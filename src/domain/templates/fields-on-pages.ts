import type { Issue } from '../../errors.js';
import type { TemplateDefinition } from './template-definition.js';

/** Fields are placed in PDF points from the page's top-left corner and must fit on their page. */
export function fieldsOutsidePages(definition: Pick<TemplateDefinition, 'fields'>, pages: { width: number; height: number }[]): Issue[] {
  const issues: Issue[] = [];
  definition.fields.forEach((field, index) => {
    const page = pages[field.page - 1];
    if (!page) {
      issues.push({ path: `fields[${index}].page`, message: `The document has ${pages.length} page(s).` });
    } else if (field.x + field.width > page.width || field.y + field.height > page.height) {
      issues.push({
        path: `fields[${index}]`,
        message: `The field runs off page ${field.page}, which is ${page.width}×${page.height} points.`,
      });
    }
  });
  return issues;
}
