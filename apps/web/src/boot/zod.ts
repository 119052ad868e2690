// The second stage of the portal's start (STAGES in vite.config.ts): zod made ready in a task of its own. The build
// evaluates a module when it is first needed, so this names what the portal will need of it.
import { z } from 'zod';

if (typeof z.object !== 'function') throw new Error('zod did not load');
