// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- declares the deep import below for every package that compiles this file
/// <reference path="./zxcvbn-passwords.d.ts" />
// The zxcvbn-ts list of common passwords (about 49,000, most used first), taken alone: the package's index would also
// bring its diceware words and keyboard graphs. About 200 KB gzip: the portal loads this module only on the screens
// that set a password, never with the sign-in page.
import passwords from '@zxcvbn-ts/language-common/dist/passwords.json.mjs';
import type { CommonPasswordList } from './auth.ts';

const COMMON = new Set<string>(passwords);

/** Whether a text (lower case) is on the list of common passwords. */
export const isCommonPassword: CommonPasswordList = (candidate) => COMMON.has(candidate);

/** How many passwords the list holds. */
export const COMMON_PASSWORD_COUNT = COMMON.size;
