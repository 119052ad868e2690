import { Link } from 'react-router';
import { AuthCard } from '../components/auth-card.tsx';

export function AccountInactiveScreen() {
  return (
    <AuthCard title="Account inactive">
      <p className="text-sm">You don&apos;t have access to this dashboard currently. Contact your administrator if this is an error.</p>
      <Link to="/login" className="mt-6 inline-block text-sm font-medium text-brand-700 hover:underline">
        Back to sign in
      </Link>
    </AuthCard>
  );
}
