// The third stage of the portal's start (STAGES in vite.config.ts): TanStack Query, the router and zustand made ready
// in a task of their own. The build evaluates a module when it is first needed, so this names what the portal will
// need of each.
import { QueryClient } from '@tanstack/react-query';
import { UNSAFE_createRouter as createRouter } from 'react-router';
import { create } from 'zustand';

if (![QueryClient, createRouter, create].every((part) => typeof part === 'function')) throw new Error('a library did not load');
