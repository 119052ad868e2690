import { ComingSoon } from './coming-soon.tsx';

/** Placeholders for screens that later changes build; each is its own lazily loaded module entry. */
export const AboutScreen = () => <ComingSoon title="About" />;
