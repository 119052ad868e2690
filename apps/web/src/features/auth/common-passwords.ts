import { useEffect, useState } from 'react';
import { passwordProblem, type CommonPasswordList } from '@portal/contract/auth';

let loading: Promise<CommonPasswordList> | undefined;

/**
 * The list of common passwords (about 200 KB gzip), loaded on demand: only the screens that set a password ask for
 * it, so the sign-in page never carries it. A failed load may be tried again; the server checks the list anyway.
 */
export function loadCommonPasswords(): Promise<CommonPasswordList> {
  loading ??= import('@portal/contract/common-passwords').then(
    (m) => m.isCommonPassword,
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

/** The list once loaded (undefined until then): the rule "not a common password" ticks as soon as it is there. */
export function useCommonPasswords(): CommonPasswordList | undefined {
  const [list, setList] = useState<{ isCommon: CommonPasswordList }>();
  useEffect(() => {
    let live = true;
    loadCommonPasswords().then(
      (isCommon) => live && setList({ isCommon }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return list?.isCommon;
}

/** The rule of a new password with the list when it can be had, else without it (the server has the last word). */
export async function newPasswordProblem(password: string, email: string): Promise<string | undefined> {
  const isCommon = await loadCommonPasswords().catch(() => undefined);
  return passwordProblem(password, email, isCommon);
}
