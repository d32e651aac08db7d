import { z } from 'zod';

/** Every password the cockpit sets: long enough to resist guessing, short enough to hash quickly. */
export const passwordSchema = z.string().min(8, 'At least 8 characters').max(1024, 'At most 1,024 characters');
