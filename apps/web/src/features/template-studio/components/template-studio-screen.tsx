import { useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { Breadcrumbs } from '@/components/console/breadcrumbs';
import { ConsolePage } from '@/components/console/console-page';
import { Field } from '@/components/console/form-dialog';
import { useStaffPermissions } from '@/components/console/use-staff-permissions';
import { Spinner } from '@/components/ui/spinner';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { appConfig } from '@/config/app-config';
import { paths } from '@/config/paths';
import { saveBlob } from '@/lib/save-blob';
import {
  downloadOf,
  isAcceptedDesignFile,
  LAYOUTS,
  qrAddress,
  STUDIO,
  STUDIO_IDLE,
  STUDIO_MESSAGES,
  studioReducer,
  type LayoutName,
} from '../template-studio-model';
import { createStudioClient, type StudioClient } from '../worker/studio-client';
import { CreateTemplatePanel } from './create-template-panel';
import { LayoutPicker } from './layout-picker';
import { samplePhotoUrls } from './sample-photo-urls';
import { StudioResults } from './studio-results';
import './template-studio.css';

/**
 * /enterprise/template-studio (staff spec section 2): choose a layout, upload a design of the
 * canvas's exact size, get the PNG overlay and the JPG sample. The pixel work runs in a worker.
 */
export function TemplateStudioScreen() {
  const permissions = useStaffPermissions();
  // One error at a time, the newest (issue 20, item 6): a download's message replaces the
  // upload's error, and a new upload clears the download's message.
  const { status, show, clear } = useTimedStatus(STUDIO.messageMs);
  const [layout, setLayout] = useState<LayoutName>('landscape3');
  const [address, setAddress] = useState(() =>
    qrAddress('', appConfig.publicUrl, window.location.origin),
  );
  const [state, dispatch] = useReducer(studioReducer, STUDIO_IDLE);
  const client = useRef<StudioClient | null>(null);
  const runs = useRef(0);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(
    () => () => {
      client.current?.terminate();
      client.current = null;
    },
    [],
  );

  // The previews' object URLs live as long as their result (freed when it is replaced or reset).
  const result = state.status === 'success' ? state.result : null;
  const previewUrls = useMemo(
    () =>
      result && {
        overlay: URL.createObjectURL(result.overlayPreview),
        sample: URL.createObjectURL(result.jpg),
      },
    [result],
  );
  useEffect(
    () => () => {
      if (previewUrls) {
        URL.revokeObjectURL(previewUrls.overlay);
        URL.revokeObjectURL(previewUrls.sample);
      }
    },
    [previewUrls],
  );

  // A refused design leaves the field empty: a browser does not report choosing the same file
  // again, so the corrected file (often the same name) could not be chosen otherwise.
  const clearDesignField = () => {
    if (fileInput.current) fileInput.current.value = '';
  };

  // Spec: changing the layout resets the result (and so does a new QR address).
  const reset = () => {
    runs.current += 1;
    dispatch({ type: 'reset' });
    clearDesignField();
  };

  const process = async (file: File) => {
    const run = ++runs.current;
    clear();
    dispatch({ type: 'start', run, fileName: file.name });
    if (!isAcceptedDesignFile(file)) {
      dispatch({ type: 'failed', run, message: STUDIO_MESSAGES.unreadable });
      clearDesignField();
      return;
    }
    client.current ??= createStudioClient();
    try {
      const output = await client.current.process({
        run,
        layout,
        design: file,
        qrText: qrAddress(address, appConfig.publicUrl, window.location.origin),
        photoUrls: samplePhotoUrls(),
      });
      dispatch({ type: 'done', run, result: { ...output, layout } });
    } catch (error) {
      dispatch({
        type: 'failed',
        run,
        message: error instanceof Error ? error.message : STUDIO_MESSAGES.unreadable,
      });
      if (run === runs.current) clearDesignField();
    }
  };

  const download = (kind: 'png' | 'jpg') => {
    const outcome = downloadOf(state, kind);
    if ('message' in outcome) {
      dispatch({ type: 'dismiss' });
      if (state.status === 'error') clearDesignField();
      show('error', outcome.message);
    } else saveBlob(outcome.blob, outcome.fileName);
  };

  const { canvas } = LAYOUTS[layout];
  const processing = state.status === 'processing';
  const breadcrumbs = (
    <Breadcrumbs
      items={[{ label: 'Home', href: paths.home.getHref() }, { label: 'Template Studio' }]}
    />
  );

  return (
    <ConsolePage
      className="studio-screen"
      breadcrumbs={breadcrumbs}
      title="Template Studio"
      after={<Toast status={status} ms={STUDIO.messageMs} />}
    >
      <p className="studio-intro">
        Turn a print design into a template overlay: the photo openings are cut out with rounded
        corners, a QR code is stamped in the corner, and a sample shows it with photos in place.
      </p>
      <div className="studio-layout-grid">
        <div className="studio-inputs">
          <section className="card studio-card">
            <LayoutPicker
              value={layout}
              onChange={(next) => {
                setLayout(next);
                reset();
              }}
            />
          </section>
          <section className="card studio-card" aria-labelledby="studio-design-title">
            <h2 id="studio-design-title" className="studio-step-title">
              2. Upload your design
            </h2>
            <Field
              id="studio-qr-address"
              label="QR code address"
              hint="The QR code in the corner opens this address."
            >
              <input
                id="studio-qr-address"
                className="input"
                type="url"
                inputMode="url"
                value={address}
                disabled={processing}
                onChange={(event) => {
                  setAddress(event.target.value);
                  if (state.status !== 'idle') reset();
                }}
              />
            </Field>
            <Field
              id="studio-design"
              label="Design (JPG or PNG)"
              hint={`Exactly ${canvas.width}×${canvas.height} px for ${layout}.`}
            >
              <input
                id="studio-design"
                ref={fileInput}
                className="input studio-file"
                type="file"
                accept="image/png,image/jpeg"
                disabled={processing}
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  if (file) void process(file);
                }}
              />
            </Field>
            <div className="studio-state" aria-live="polite">
              {state.status === 'idle' && (
                <p className="studio-note" data-testid="studio-idle">
                  Choose a layout, then upload a design to get the PNG overlay and JPG sample.
                </p>
              )}
              {processing && (
                <p className="studio-processing" data-testid="studio-processing">
                  <Spinner small label="Processing" /> Processing {state.fileName}…
                </p>
              )}
              {state.status === 'success' && (
                <p className="status status-success" data-testid="studio-success">
                  Done in {(state.result.ms / 1000).toFixed(1)} s: download both files below.
                </p>
              )}
            </div>
            {state.status === 'error' && (
              <p className="status status-error" role="alert" data-testid="studio-error">
                {state.message}
              </p>
            )}
          </section>
        </div>
        <section className="card studio-card studio-outputs" aria-labelledby="studio-output-title">
          <h2 id="studio-output-title" className="studio-step-title">
            3. Your files
          </h2>
          {result && previewUrls ? (
            <StudioResults
              result={result}
              overlayUrl={previewUrls.overlay}
              sampleUrl={previewUrls.sample}
            />
          ) : (
            <div className="studio-empty" aria-busy={processing}>
              {processing ? (
                <Spinner label="Processing" />
              ) : (
                <p>The PNG overlay and the JPG sample appear here.</p>
              )}
            </div>
          )}
          <div className="console-actions studio-downloads">
            <button type="button" className="btn btn-primary" onClick={() => download('png')}>
              Download PNG
            </button>
            <button type="button" className="btn btn-secondary" onClick={() => download('jpg')}>
              Download JPG
            </button>
          </div>
        </section>
      </div>
      {state.status === 'success' && permissions.can('template.manage') && (
        <CreateTemplatePanel
          key={`${state.result.layout}-${state.fileName}-${state.result.ms}`}
          result={state.result}
          fileName={state.fileName}
        />
      )}
    </ConsolePage>
  );
}
