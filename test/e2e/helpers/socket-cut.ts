import type { Page, WebSocketRoute } from 'playwright-core';

/** A page's live connection, which the test can cut (a network blip, a server restart) and mend. */
export interface SocketCut {
  /** Closes every socket at once; until `mend`, new ones are closed and polling requests fail. */
  cut(): Promise<void>;
  mend(): void;
}

/** Routes the page's socket.io traffic through the test; call before the page opens a socket. */
export async function cuttableSockets(page: Page): Promise<SocketCut> {
  let cut = false;
  const open: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    if (cut) return void ws.close();
    ws.connectToServer();
    open.push(ws);
  });
  await page.route(/\/socket\.io\//, (route) => (cut ? route.abort() : route.continue()));
  return {
    async cut() {
      cut = true;
      for (const ws of open.splice(0)) await ws.close();
    },
    mend() {
      cut = false;
    },
  };
}
