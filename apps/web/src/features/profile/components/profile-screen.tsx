import type { Pool } from '@flashbooth/contracts';
import { PRIVACY_MESSAGES } from '@flashbooth/contracts/rules';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '@/components/ui/dialog';
import { StatusMessage, useTimedStatus } from '@/components/ui/status-message';
import { useHideBottomNav } from '@/components/layout/hide-bottom-nav';
import { useSession } from '@/lib/session';
import { LineIcon } from '@/components/ui/line-icon';
import { LoadErrorPanel } from '@/components/ui/list-states';
import { useSelf } from '@/api/users/get-self';
import { useSignOutOnServer } from '../api/sign-out';
import { PROFILE_SCREEN_MESSAGES } from '../profile-form';
import { PasskeysSection } from './passkeys-section';
import { PrivacySection } from './privacy-section';
import { ProfileDetailsForm } from './profile-details-form';
import './profile-screen.css';

/** Spec: profile messages hide after 2 s. */
const STATUS_MS = 2000;
/** Spec: after a failed sign-out the screen goes home after 1 second. */
const SIGN_OUT_FAILURE_DELAY_MS = 1000;

const TITLES: Record<Pool, string> = { regular: 'Profile', enterprise: 'Enterprise Profile' };

function ProfileSkeleton() {
  return (
    <div className="card profile-card" aria-busy="true" data-testid="profile-skeleton">
      <span className="visually-hidden" role="status">
        Loading profile…
      </span>
      <div className="profile-summary" aria-hidden="true">
        <div className="skeleton profile-avatar" />
        <div className="profile-summary-text">
          <div className="skeleton skeleton-line" style={{ width: '55%' }} />
          <div className="skeleton skeleton-line" style={{ width: '35%' }} />
        </div>
      </div>
      <div className="profile-grid" aria-hidden="true">
        {Array.from({ length: 6 }, (_, index) => (
          <div key={index} className="skeleton-field">
            <div className="skeleton skeleton-label" />
            <div className="skeleton skeleton-input" />
          </div>
        ))}
      </div>
    </div>
  );
}

/**
 * After "Delete my account": the account and its sessions are gone on the server. The profile
 * is replaced by this notice (nothing of the account is fetched again; no bottom navigation), and
 * "Go to the home page" forgets the session in this browser, which takes the person home signed out.
 */
function AccountDeletedNotice() {
  const session = useSession();
  const heading = useRef<HTMLHeadingElement>(null);
  // Its tabs would lead into an account that no longer exists.
  useHideBottomNav();
  useEffect(() => heading.current?.focus(), []);
  return (
    <main className="page profile-page" id="main">
      <section className="card profile-card account-deleted" aria-labelledby="account-deleted">
        <h1 id="account-deleted" ref={heading} tabIndex={-1}>
          Account deleted
        </h1>
        <p role="status">{PRIVACY_MESSAGES.deleted}</p>
        <button type="button" className="btn btn-primary" onClick={() => session.clearLocal()}>
          Go to the home page
        </button>
      </section>
    </main>
  );
}

/** The signed-in user's profile for either pool (spec: Regular profile, Enterprise profile). */
export function ProfileScreen({ pool }: { pool: Pool }) {
  const [deleted, setDeleted] = useState(false);
  const queryClient = useQueryClient();
  if (deleted) return <AccountDeletedNotice />;
  return (
    <ProfileContent
      pool={pool}
      onDeleted={() => {
        // Nothing of the deleted account stays cached in this tab.
        queryClient.clear();
        setDeleted(true);
      }}
    />
  );
}

function ProfileContent({ pool, onDeleted }: { pool: Pool; onDeleted: () => void }) {
  const self = useSelf(pool);
  const session = useSession();
  const { status, show, clear } = useTimedStatus(STATUS_MS);
  const signOutOnServer = useSignOutOnServer(pool);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);

  const signOut = async () => {
    setLeaving(true);
    clear();
    try {
      await signOutOnServer.mutateAsync();
    } catch {
      setConfirmOpen(false);
      show('error', PROFILE_SCREEN_MESSAGES.signOutFailed);
      await new Promise((resolve) => setTimeout(resolve, SIGN_OUT_FAILURE_DELAY_MS));
    }
    // The route guard sends a person who just signed out from a guarded page home.
    session.clearLocal();
  };

  return (
    <main className="page profile-page" id="main">
      <h1 className="page-title">{TITLES[pool]}</h1>

      {self.isPending ? (
        <ProfileSkeleton />
      ) : self.isError ? (
        <LoadErrorPanel
          className="card profile-card profile-load-error"
          message={PROFILE_SCREEN_MESSAGES.loadFailed}
          query={self}
        />
      ) : (
        <ProfileDetailsForm
          key={self.data.id}
          user={self.data}
          pool={pool}
          onStatus={show}
          clearStatus={clear}
        />
      )}

      {self.isSuccess && <PasskeysSection pool={pool} onStatus={show} />}

      {self.isSuccess && pool === 'regular' && (
        <PrivacySection
          creditsText={self.data.credits_rupees ? `₹${self.data.credits_rupees.toFixed(2)}` : null}
          onDeleted={onDeleted}
        />
      )}

      <StatusMessage status={status} />

      <section className="profile-signout" aria-label="Sign out">
        <button
          type="button"
          className="btn btn-secondary profile-signout-button"
          onClick={() => setConfirmOpen(true)}
          disabled={leaving}
        >
          <LineIcon size={18}>
            <path d="M15 4h3a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3M10 16l-4-4 4-4M6 12h10" />
          </LineIcon>
          Sign Out
        </button>
      </section>

      <ConfirmDialog
        open={confirmOpen}
        title="Sign Out"
        message={PROFILE_SCREEN_MESSAGES.signOutConfirm}
        confirmLabel="Yes, Sign Out"
        cancelLabel="Cancel"
        busy={leaving}
        onConfirm={() => void signOut()}
        onCancel={() => setConfirmOpen(false)}
      />
    </main>
  );
}
