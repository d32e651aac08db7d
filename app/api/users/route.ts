import { z } from 'zod';
import { hashPassword } from '../../../worker/auth/password';
import { ROLES } from '../../../worker/auth/roles';
import { passwordSchema } from '../../lib/server/account-schemas';
import { HttpError, apiRoute, readJson } from '../../lib/server/handler';
import { isUniqueViolation } from '../../../worker/store/prisma';

export const dynamic = 'force-dynamic';

const newUser = z.object({
  username: z.string().trim().min(1).max(100).regex(/^[A-Za-z0-9._@-]+$/, 'Letters, digits and . _ @ - only'),
  password: passwordSchema,
  role: z.enum(ROLES),
});

/** GET /api/users [manage-users] → users without password hashes. */
export const GET = apiRoute('manage-users', async ({ prisma }) =>
  prisma.user.findMany({ select: { id: true, username: true, role: true, createdAt: true }, orderBy: { id: 'asc' } }),
);

/** POST /api/users [manage-users] {username,password,role} → 201 user. */
export const POST = apiRoute('manage-users', async ({ req, prisma }) => {
  const input = await readJson(req, newUser);
  const exists = () => new HttpError(409, `User ${input.username} exists`);
  // Checked first so a taken name costs no password hash; the unique index decides a race.
  if (await prisma.user.findUnique({ where: { username: input.username } })) throw exists();
  // admin, Admin and ADMIN would be three accounts no one could tell apart in a list or a crawl's owner.
  const sameButCase = await prisma.$queryRaw<{ username: string }[]>`SELECT username FROM User WHERE lower(username) = lower(${input.username}) LIMIT 1`;
  if (sameButCase.length) throw new HttpError(409, `User ${sameButCase[0].username} exists: names that differ only in case are one name`);
  const user = await prisma.user
    .create({
      data: { username: input.username, role: input.role, passwordHash: await hashPassword(input.password) },
      select: { id: true, username: true, role: true },
    })
    .catch((err: unknown) => {
      throw isUniqueViolation(err) ? exists() : err;
    });
  return Response.json(user, { status: 201 });
});
