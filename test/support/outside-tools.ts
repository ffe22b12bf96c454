/**
 * The outside programs some suites check our output with (poppler's pdfsig, pdftotext and
 * pdftoppm, qpdf, openssl): readers that share no code with ours. CI installs them (`.ci/run`); on
 * a machine without them those checks are skipped, and say so, so that `npm test` still runs anywhere.
 */
import { execFileSync } from 'node:child_process';

const probes: Record<string, string[]> = {
  pdfsig: ['-v'],
  pdftotext: ['-v'],
  pdftoppm: ['-v'],
  pdfinfo: ['-v'],
  pdffonts: ['-v'],
  qpdf: ['--version'],
  openssl: ['version'],
};

export function installed(...tools: (keyof typeof probes)[]): boolean {
  const missing = tools.filter((tool) => {
    try {
      execFileSync(tool, probes[tool]!, { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length > 0)
    console.warn(`${missing.join(' and ')} not installed (apt-get install poppler-utils qpdf openssl): the checks that use them are SKIPPED.`);
  return missing.length === 0;
}
