// The first stage of the portal's start (STAGES in vite.config.ts): React DOM made ready in a task of its own. The
// build evaluates a module when it is first needed, so this names what the portal will need of it.
import { createRoot } from 'react-dom/client';

if (typeof createRoot !== 'function') throw new Error('React DOM did not load');
