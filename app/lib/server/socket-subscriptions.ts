import type { Socket } from 'socket.io';
import { can } from '../../../worker/auth/roles';
import { crawlRoom } from '../../../worker/events/messages';
import type { SessionUser } from '../../../worker/auth/sessions';

/**
 * A socket's `subscribe` / `unsubscribe` to a crawl's live events. `session` looks the socket's
 * session up again on each subscription: it may have expired or been revoked since the handshake.
 * The arguments are whatever the client sent: an acknowledgement that is no function (`emit('subscribe',
 * {crawlId: 1}, 'x')`) threw `ack is not a function` in the server process, an uncaught exception.
 */
export function handleSubscriptions(socket: Socket, session: () => SessionUser | null): void {
  socket.on('subscribe', (arg: unknown, ack: unknown) => {
    const answer = (reply: { ok: boolean; error?: string }) => {
      if (typeof ack === 'function') ack(reply);
    };
    const crawlId = Number((arg as { crawlId?: unknown } | null)?.crawlId);
    const user = session();
    if (!user || !can(user.role, 'view')) return answer({ ok: false, error: 'forbidden' });
    if (!Number.isInteger(crawlId) || crawlId <= 0) return answer({ ok: false, error: 'invalid crawlId' });
    void socket.join(crawlRoom(crawlId));
    answer({ ok: true });
  });
  socket.on('unsubscribe', (arg: unknown) => void socket.leave(crawlRoom(Number((arg as { crawlId?: unknown } | null)?.crawlId))));
}
