import { ApiError } from './api-client';

/**
 * What a person sees of a failed call: the server's message when it sent one (the spec: read it
 * first), the network's when nothing answered (both come as an ApiError from apiRequest), else the
 * screen's own `fallback`. Never a browser's or a library's raw text.
 */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}
