// Following `GET /v1/events/live` (Server-Sent Events) so an open page updates without a
// reload. Read with fetch rather than EventSource: the server names each message by its event
// type, which EventSource only delivers to listeners registered per type, and fetch can send
// the reader's token. Reconnects after a drop, resuming after the last position seen.

import { token } from './api.js';

/**
 * Call `onEvent(event)` for every event appended after `from` (a `$all` position) until the
 * returned function is called. `onState('live' | 'reconnecting')` tells the page how it stands.
 */
export function follow(from, onEvent, onState = () => {}) {
  const controller = new AbortController();
  let next = from;
  let stopped = false;
  const run = async () => {
    while (!stopped) {
      try {
        const headers = { Accept: 'text/event-stream' };
        if (token.get()) headers.Authorization = `Bearer ${token.get()}`;
        const response = await fetch(`/v1/events/live?from=${next}`, { headers, signal: controller.signal });
        if (!response.ok || !response.body) throw new Error(`live events: HTTP ${response.status}`);
        onState('live');
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const message = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = message.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
            if (!data) continue;
            const event = JSON.parse(data);
            next = event.position + 1;
            onEvent(event);
          }
        }
      } catch (error) {
        if (stopped) return;
      }
      if (stopped) return;
      onState('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  };
  run();
  return () => { stopped = true; controller.abort(); };
}
