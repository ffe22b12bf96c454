/**
 * Where each request's log line goes (LOG_REQUESTS): stdout on Node and in Workers Logs; a test
 * collects the lines. The edge (src/http/request-log.ts) writes them.
 */

/**
 * One request in the log. Never its path or query: a signing link's path is a credential, and so
 * is a download link's `sig`; the route is the pattern that answered (`/sign/{token}`).
 */
export type RequestLogLine = {
  request_id: string;
  method: string;
  /** The pattern of the route that answered; null when no route matched. */
  route: string | null;
  status: number;
  /** Until the answer's headers were ready (a streamed body may take longer). */
  duration_ms: number;
  /** The company of the verified access token, when the request carried one. */
  company_id: string | null;
};

export type RequestLog = (line: RequestLogLine) => void;
