import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { useToasts } from '../components/ui/toast-store.ts';
import { setAuthHooks } from '../lib/api-client.ts';
import { forgetBrowserTimeZone } from '../lib/browser-zone.ts';
import { resetConnection } from '../lib/connection.ts';
import { useSession } from '../lib/session/session-store.ts';
import { forgetTestMode } from '../lib/test-mode.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setAuthHooks(undefined);
  resetConnection();
  forgetBrowserTimeZone();
  useSession.getState().reset();
  // the live view again (the test view is kept in local storage)
  forgetTestMode();
  useToasts.getState().hideToast();
  sessionStorage.clear();
  // the request-forgery token the api client keeps on the page
  document.getElementById('_csrf')?.remove();
});
