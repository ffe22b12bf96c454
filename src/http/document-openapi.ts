/**
 * The OpenAPI entry's parts shared by the endpoints that answer with documentAnswer
 * (document-answer.ts): the request headers it reads and its three answers, stated once so that
 * each endpoint documents what the one function does.
 */
import { z } from '@hono/zod-openapi';

export const DocumentRequestHeaders = z.object({
  range: z.string().optional().openapi({
    description: 'One byte range, to resume a download: `bytes=a-b`, `bytes=a-` (to the end) or `bytes=-n` (the last n bytes).',
    example: 'bytes=0-1023',
  }),
  'if-range': z.string().optional().openapi({
    description: 'The `ETag` of the copy being resumed: the range is sent only while the PDF is still that one; otherwise the whole PDF is, with 200.',
    example: '"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"',
  }),
});

const pdf = { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } };

const documentHeaders = {
  'Content-Length': { description: 'The bytes of this answer.', schema: { type: 'integer' as const } },
  'Accept-Ranges': { description: '`bytes`: one range may be asked for.', schema: { type: 'string' as const } },
  ETag: { description: 'The PDF’s SHA-256 (hex), quoted.', schema: { type: 'string' as const } },
};

/** The answers 200 (`whole` says what the endpoint sends, in its own words), 206 and 416. */
export function documentResponses(whole: string) {
  return {
    200: {
      description: `${whole} Also the answer to a \`Range\` of several ranges or a malformed one, and to any \`Range\` sent with an \`If-Range\` other than the PDF’s \`ETag\`.`,
      headers: documentHeaders,
      content: pdf,
    },
    206: {
      description: 'The one byte range asked for, `Content-Range: bytes a-b/size` saying which.',
      headers: {
        ...documentHeaders,
        'Content-Range': { description: '`bytes a-b/size`: the range sent and the whole PDF’s size.', schema: { type: 'string' as const } },
      },
      content: pdf,
    },
    416: {
      description: 'The range starts past the end of the PDF (or asks for none of it): no body, `Content-Range: bytes */size` gives its size.',
      headers: { 'Content-Range': { description: '`bytes */size`.', schema: { type: 'string' as const } } },
      // No body: an empty content map says so, and types the handler's answer as an untyped Response.
      content: {},
    },
  };
}
