// A real X pointer and keyboard on a virtual display (lib/xvfb.mjs), driven
// by Debian's `xdotool` (install/deps.sh --test): the events reach whichever
// window is under the pointer (or has the focus), as a person's would —
// which is what the person's surface must be tested against: a window a page
// expects at a spot, a pointer at rest there, a click meant for the page.

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const XDOTOOL_PATH = process.env.TABBRIDGE_XDOTOOL || '/usr/bin/xdotool';

/** The pointer and keyboard of X display `display` (':N'). */
export function xPointer(display) {
  const xdo = async (...args) => (await run(XDOTOOL_PATH, args.map(String), {
    env: { ...process.env, DISPLAY: display },
    timeout: 10_000,
  })).stdout;
  return {
    // On the screen (xdotool's --sync would wait for ever for a place the pointer cannot reach).
    moveTo: (x, y) => xdo('mousemove', '--sync', Math.max(0, Math.round(x)), Math.max(0, Math.round(y))),
    click: () => xdo('click', '1'),
    key: (...names) => xdo('key', ...names),
    /** Gives the keyboard focus to the window titled `title`… (what a window manager does for a window that asks for it). */
    focusWindow: (title) => xdo('search', '--name', `^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'windowfocus', '--sync', '%1'),
    /** Where the pointer is: {x, y}. */
    where: async () => {
      const out = await xdo('getmouselocation', '--shell');
      return { x: Number(/X=(\d+)/.exec(out)[1]), y: Number(/Y=(\d+)/.exec(out)[1]) };
    },
    /** A person's move: from where the pointer is to (x, y) in `steps` motions. */
    async glideTo(x, y, steps = 8) {
      const from = await this.where();
      for (let i = 1; i <= steps; i++) {
        await this.moveTo(from.x + ((x - from.x) * i) / steps, from.y + ((y - from.y) * i) / steps);
      }
    },
  };
}
