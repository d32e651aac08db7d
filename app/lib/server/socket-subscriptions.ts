import type { Server, Socket } from 'socket.io';
import { can } from '../../../worker/auth/roles';
import { crawlRoom, SESSION_ENDED_EVENT, SOCKET_UNAUTHENTICATED } from '../../../worker/events/messages';
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
    if (!user) return answer({ ok: false, error: SOCKET_UNAUTHENTICATED });
    if (!can(user.role, 'view')) return answer({ ok: false, error: 'forbidden' });
    if (!Number.isInteger(crawlId) || crawlId <= 0) return answer({ ok: false, error: 'invalid crawlId' });
    void socket.join(crawlRoom(crawlId));
    answer({ ok: true });
  });
  socket.on('unsubscribe', (arg: unknown) => void socket.leave(crawlRoom(Number((arg as { crawlId?: unknown } | null)?.crawlId))));
}

/** How often connected sockets' sessions are checked again. */
export const SESSION_RECHECK_MS = 5_000;

/**
 * Tells each connected socket whose session has ended (`session(socket)` null: signed out in
 * another tab, expired, its password reset) so, and disconnects it. The handshake checked the
 * session once: without this the socket went on receiving a crawl's events after the sign-out, and
 * a page that reconnected later was refused with nothing to say why.
 */
export function dropEndedSessions(io: Server, session: (socket: Socket) => unknown): number {
  let dropped = 0;
  for (const socket of io.of('/').sockets.values()) {
    // A look-up that fails (the database busy, say) keeps the socket: it is checked again next time.
    // Thrown from the server's timer, it would have ended the server process.
    try {
      if (session(socket)) continue;
    } catch {
      continue;
    }
    socket.emit(SESSION_ENDED_EVENT);
    socket.disconnect();
    dropped++;
  }
  return dropped;
}
