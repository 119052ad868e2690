import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { useToasts } from '../components/ui/toast-store.ts';
import { setAuthHooks } from '../lib/api-client.ts';
import { forgetBrowserTimeZone } from '../lib/browser-zone.ts';
import { resetConnection } from '../lib/connection.ts';
import { useSession } from '../lib/session/session-store.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setAuthHooks(undefined);
  resetConnection();
  forgetBrowserTimeZone();
  useSession.getState().reset();
  useToasts.getState().hideToast();
  sessionStorage.clear();
  // the request-forgery token the api client keeps on the page
  document.getElementById('_csrf')?.remove();
});
