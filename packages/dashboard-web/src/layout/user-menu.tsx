import { useAuth } from '../auth';

/** The signed-in user's name and role, and sign-out. */
export function UserMenu() {
  const { user, signOut } = useAuth();
  if (user === null) return null;
  return (
    <div className="user-menu">
      <span>{user.displayName ?? user.username}</span>
      <button type="button" className="button" onClick={() => void signOut()}>
        Sign out
      </button>
    </div>
  );
}
