import { z } from 'zod';

/** The two separate sign-in pools and API bases: /api/regular and /api/enterprise. */
export const POOLS = ['regular', 'enterprise'] as const;
export const PoolSchema = z.enum(POOLS);
export type Pool = z.infer<typeof PoolSchema>;

/** Every error body the API returns (DESIGN.md "Errors"). */
export const ErrorBodySchema = z.object({
  message: z.string(),
  code: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** UTC timestamp without zone suffix, e.g. 2025-05-14T10:20:30. */
export const TimestampSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);

export const IdParamSchema = z.object({ id: z.coerce.number().int().positive() });

export const PageQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(10),
  offset: z.coerce.number().int().min(0).default(0),
});

export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total_count: z.number().int() });
}

export const HealthSchema = z.object({ status: z.literal('ok') });
