import { Card } from '../../../components/ui/card.tsx';

export function LoginScreen() {
  return (
    <Card className="p-8">
      <h1 className="text-xl font-semibold">Sign in</h1>
      <p className="mt-2 text-muted">Sign-in is being built.</p>
    </Card>
  );
}
