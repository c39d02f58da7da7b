import type { Pool, VerifyResponse } from '@flashbooth/contracts';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { BrandLogo } from '@/components/layout/brand-logo';
import { Spinner } from '@/components/ui/spinner';
import { StatusMessage, useTimedStatus } from '@/components/ui/status-message';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/error-text';
import { useSession } from '@/lib/session';
import { peekRedirect, takeRedirect } from '@/lib/storage';
import { useSignIn } from '../api/sign-in';
import { useSignUp } from '../api/sign-up';
import { useVerifyCode } from '../api/verify';
import {
  AUTH_CODES,
  type BudgetNotice,
  budgetNoticeOf,
  DEFAULT_COUNTRY_CODE,
  hasErrorCode,
  homeAfterSignIn,
  isCompleteOtp,
  LOGIN_MESSAGES,
  phoneToSend,
  returnPathToSend,
} from '../login-model';
import { clearSignInProgress, readSignInProgress, writeSignInProgress } from '../sign-in-progress';
import { OtpStep, PhoneStep, SignUpStep } from './login-steps';
import { PasskeySignIn } from './passkey-sign-in';
import { BudgetSpentNotice, LinkFailedNotice } from './sign-in-link-notices';
import { useSignInLink } from './use-sign-in-link';
import './login-screen.css';

type Step = 'phone' | 'signup' | 'otp';

/** Spec: login messages hide after 5 s. */
const STATUS_MS = 5000;

const TITLES: Record<Pool, string> = {
  regular: 'Sign in to Flashbooth',
  enterprise: 'Venue Portal sign in',
};

/**
 * The sign-in screen for both pools (spec: Login screen): phone entry, an optional
 * Create Your Account step, then the 4-digit code, which submits itself when complete.
 */
export function LoginScreen({ pool }: { pool: Pool }) {
  const session = useSession();
  const navigate = useNavigate();
  const { status, show, clear } = useTimedStatus(STATUS_MS);

  // A tab the phone discarded while its visitor read the SMS opens on the step it was on.
  const [resumed] = useState(() => readSignInProgress(pool));
  const [step, setStep] = useState<Step>(resumed?.step ?? 'phone');
  const [countryCode, setCountryCode] = useState(resumed?.countryCode ?? DEFAULT_COUNTRY_CODE);
  const [number, setNumber] = useState(resumed?.number ?? '');
  const [phone, setPhone] = useState(resumed?.phone ?? '');
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [completing, setCompleting] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  /** The phone's code budget is spent: codes are refused, the SMS's link still signs in. */
  const [budget, setBudget] = useState<BudgetNotice | null>(null);

  const signIn = useSignIn(pool);
  const signUp = useSignUp(pool);
  const verify = useVerifyCode(pool);
  const busy = signIn.isPending || signUp.isPending || verify.isPending || completing;

  const firstFieldRef = useRef<HTMLInputElement>(null);
  const numberRef = useRef<HTMLInputElement>(null);

  const authenticated = session.auth.status === 'authenticated' && session.user !== null;
  const signedInPool = session.auth.status === 'authenticated' ? session.auth.userType : pool;
  const checking = session.auth.status === 'checking';

  /** Signed in: the sign-in's progress is over. */
  const establish = (response: VerifyResponse) => {
    clearSignInProgress();
    session.establish(pool, response);
  };

  // Opened from the one-tap link of a sign-in SMS: sign in with it (also over another session).
  const link = useSignInLink(pool, !checking, async (response, next) => {
    setCompleting(true);
    establish(response);
    const stored = takeRedirect();
    await navigate(homeAfterSignIn(pool, next ?? stored), { replace: true });
  });
  const linkSigningIn = link.status === 'signing-in';

  /** Signed in with a passkey (passkey-sign-in.tsx: the button or the phone field's autofill). */
  const finishWithPasskey = async (response: VerifyResponse) => {
    clear();
    setCompleting(true);
    establish(response);
    await navigate(homeAfterSignIn(pool, takeRedirect()), { replace: true });
  };
  // Signed in (here, or in another tab by the SMS's link): a later sign-out starts afresh.
  useEffect(() => {
    if (authenticated) clearSignInProgress();
  }, [authenticated]);
  const showForm = !completing && !authenticated && !checking && !linkSigningIn;

  // Each step starts with its first field focused (also after returning to phone entry), unless
  // the visitor is already in one of its fields (typing into the page painted before the app).
  useEffect(() => {
    const first = firstFieldRef.current;
    if (!showForm || !first) return;
    const active = document.activeElement;
    if (active instanceof HTMLInputElement && active.form !== null && active.form === first.form) {
      return;
    }
    first.focus();
  }, [step, showForm]);

  /** `target`: the phone the next step is for (state set in the same event is not read yet). */
  const goToStep = (next: Step, target = phone) => {
    setFieldError(null);
    if (next !== 'phone') setBudget(null);
    if (next !== 'signup') setName('');
    setCode('');
    setStep(next);
    if (next === 'phone') clearSignInProgress();
    else
      writeSignInProgress({ pool, step: next, countryCode, number, phone: target, at: Date.now() });
  };

  /** Sends a code (and sign-in link) with the page the link should return to. */
  const sendCode = (target: string) =>
    signIn.mutateAsync({ phone: target, next: returnPathToSend(peekRedirect()) });

  /**
   * A spent code budget ends at phone entry with the explanation instead of a passing status;
   * false for any other error.
   */
  const showBudget = (error: unknown) => {
    const notice = budgetNoticeOf(error);
    if (!notice) return false;
    clear();
    goToStep('phone');
    setBudget(notice);
    return true;
  };

  /** Asks for a fresh code after a failed verification; too many attempts ends at phone entry. */
  const resendCode = async () => {
    try {
      await sendCode(phone);
    } catch (error) {
      if (showBudget(error)) return;
      if (hasErrorCode(error, AUTH_CODES.tooManyAttempts)) {
        show('error', LOGIN_MESSAGES.tooManyAttempts);
        goToStep('phone');
      } else {
        show('error', errorText(error, LOGIN_MESSAGES.sendFailed));
      }
    }
  };

  const submitPhone = async () => {
    if (busy) return;
    const target = phoneToSend(countryCode, number);
    if (!target) {
      setFieldError(LOGIN_MESSAGES.invalidPhone);
      numberRef.current?.focus();
      return;
    }
    setFieldError(null);
    clear();
    setBudget(null);
    setPhone(target);
    try {
      await sendCode(target);
      goToStep('otp', target);
    } catch (error) {
      if (showBudget(error)) return;
      if (hasErrorCode(error, AUTH_CODES.userNotFound)) goToStep('signup', target);
      else show('error', errorText(error, LOGIN_MESSAGES.sendFailed));
    }
  };

  const submitSignUp = async () => {
    if (busy) return;
    const fullName = name.trim();
    if (!fullName) {
      setFieldError(LOGIN_MESSAGES.nameRequired);
      firstFieldRef.current?.focus();
      return;
    }
    setFieldError(null);
    clear();
    try {
      // The server sends the first code as part of sign-up.
      await signUp.mutateAsync({
        phone,
        name: fullName,
        next: returnPathToSend(peekRedirect()),
      });
      goToStep('otp');
    } catch (error) {
      if (hasErrorCode(error, AUTH_CODES.phoneRegistered)) {
        show('info', LOGIN_MESSAGES.phoneRegistered);
        try {
          await sendCode(phone);
          goToStep('otp');
        } catch (sendError) {
          if (showBudget(sendError)) return;
          show('error', LOGIN_MESSAGES.createdButNotSent);
          goToStep('phone');
        }
      } else if (hasErrorCode(error, AUTH_CODES.tooManyAttempts)) {
        show('error', LOGIN_MESSAGES.tooManyAttempts);
      } else {
        show('error', LOGIN_MESSAGES.signUpFailed);
      }
    }
  };

  const submitCode = async (value: string) => {
    if (busy) return;
    if (!isCompleteOtp(value)) {
      setFieldError(LOGIN_MESSAGES.otpRequired);
      firstFieldRef.current?.focus();
      return;
    }
    setFieldError(null);
    clear();
    let response: VerifyResponse;
    try {
      response = await verify.mutateAsync({ phone, code: value });
    } catch (error) {
      setCode('');
      firstFieldRef.current?.focus();
      if (showBudget(error)) return;
      if (hasErrorCode(error, AUTH_CODES.codeMismatch)) {
        show('error', LOGIN_MESSAGES.codeMismatch);
        await resendCode();
      } else if (hasErrorCode(error, AUTH_CODES.codeExpired)) {
        show('error', LOGIN_MESSAGES.codeExpired);
        await resendCode();
      } else if (hasErrorCode(error, AUTH_CODES.tooManyAttempts)) {
        show('error', LOGIN_MESSAGES.tooManyAttempts);
        goToStep('phone');
      } else {
        show('error', LOGIN_MESSAGES.verifyFailed);
      }
      return;
    }
    setCompleting(true);
    establish(response);
    await navigate(homeAfterSignIn(pool, takeRedirect()), { replace: true });
  };

  const onCodeChange = (value: string) => {
    setCode(value);
    if (fieldError) setFieldError(null);
    // Spec: the code submits itself once all four digits are in.
    if (isCompleteOtp(value) && !busy) void submitCode(value);
  };

  const signOut = async () => {
    setSigningOut(true);
    clear();
    try {
      await session.signOut();
    } catch {
      show('error', LOGIN_MESSAGES.signOutFailed);
    } finally {
      setSigningOut(false);
    }
  };

  const changeNumber = () => {
    clear();
    goToStep('phone');
  };

  let body;
  if (checking || completing || linkSigningIn) {
    const waiting = completing || linkSigningIn ? 'Signing you in…' : 'Checking your session…';
    body = (
      <div className="login-waiting">
        <Spinner label={waiting} />
        <p aria-hidden="true">{waiting}</p>
      </div>
    );
  } else if (authenticated) {
    body = (
      <div className="login-signed-in">
        <p className="login-signed-in-text">You&apos;re signed in as {session.user?.name}</p>
        <div className="login-signed-in-actions">
          <button
            type="button"
            className="btn btn-primary btn-block"
            onClick={() => void signOut()}
            disabled={signingOut}
            aria-busy={signingOut}
          >
            {signingOut && <Spinner small label="Signing out…" />}
            <span>Sign Out</span>
          </button>
          {/* The home of the account signed in, which may be the other pool's (a visitor on the
              staff login): its own area is where it can go. */}
          <Link className="btn btn-secondary btn-block" to={homeAfterSignIn(signedInPool, null)}>
            {signedInPool === 'enterprise' ? 'Go to the console' : 'Go to home'}
          </Link>
        </div>
      </div>
    );
  } else if (step === 'phone') {
    body = (
      <>
        {link.status === 'failed' && <LinkFailedNotice message={link.message} />}
        {budget && <BudgetSpentNotice notice={budget} phone={phone} />}
        <PhoneStep
          countryCode={countryCode}
          number={number}
          error={fieldError}
          busy={busy}
          firstFieldRef={firstFieldRef}
          numberRef={numberRef}
          onCountryCodeChange={(value) => {
            setCountryCode(value);
            setFieldError(null);
          }}
          onNumberChange={(value) => {
            setNumber(value);
            setFieldError(null);
          }}
          onSubmit={() => void submitPhone()}
        />
        <PasskeySignIn
          pool={pool}
          disabled={busy}
          onSignedIn={(response) => void finishWithPasskey(response)}
          onError={(message) => show('error', message)}
        />
      </>
    );
  } else if (step === 'signup') {
    body = (
      <SignUpStep
        phone={phone}
        name={name}
        error={fieldError}
        busy={busy}
        firstFieldRef={firstFieldRef}
        onNameChange={(value) => {
          setName(value);
          setFieldError(null);
        }}
        onSubmit={() => void submitSignUp()}
        onChangeNumber={changeNumber}
      />
    );
  } else {
    body = (
      <OtpStep
        phone={phone}
        code={code}
        error={fieldError}
        busy={busy}
        firstFieldRef={firstFieldRef}
        onCodeChange={onCodeChange}
        onSubmit={() => void submitCode(code)}
        onChangeNumber={changeNumber}
      />
    );
  }

  return (
    <main className="login-page" id="main" data-pool={pool}>
      <div className="login-wrap">
        <BrandLogo size={44} className="login-logo" />
        <section className="card login-card" aria-labelledby="login-title">
          <h1 id="login-title" className="login-title">
            {TITLES[pool]}
          </h1>
          {body}
          <StatusMessage status={status} />
        </section>
        <p className="login-legal">
          By continuing you agree to our{' '}
          <a href={paths.terms.getHref()} target="_blank" rel="noopener noreferrer">
            Terms<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
          ,{' '}
          <a href={paths.refund.getHref()} target="_blank" rel="noopener noreferrer">
            Refund Policy<span className="visually-hidden"> (opens in a new tab)</span>
          </a>{' '}
          and{' '}
          <a href={paths.privacy.getHref()} target="_blank" rel="noopener noreferrer">
            Privacy Policy<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
          . You must be 18 or older.
        </p>
      </div>
    </main>
  );
}
