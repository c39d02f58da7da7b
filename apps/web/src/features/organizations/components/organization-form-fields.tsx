import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useId } from 'react';
import { Field } from '@/components/console/form-dialog';
import type { OrganizationFormValues } from '../organizations-model';

interface OrganizationFormFieldsProps {
  values: OrganizationFormValues;
  onChange: (values: OrganizationFormValues) => void;
  /** The create dialog asks Name, Email, Phone, Address; the edit form Name, Phone, Email, Address. */
  order: readonly (keyof OrganizationFormValues)[];
}

const LABELS: Record<keyof OrganizationFormValues, string> = {
  name: 'Name',
  email: 'Email',
  phone: 'Phone',
  address: 'Address',
};

/** The organization's fields, shared by Create Organization and Edit Organization. */
export function OrganizationFormFields({ values, onChange, order }: OrganizationFormFieldsProps) {
  const id = useId();
  const set = (key: keyof OrganizationFormValues, value: string) =>
    onChange({ ...values, [key]: value });
  return (
    <>
      {order.map((key) => (
        <Field
          key={key}
          id={`${id}-${key}`}
          label={LABELS[key]}
          hint={key === 'phone' ? ORGANIZATION_MESSAGES.phoneHint : undefined}
        >
          {key === 'address' ? (
            <textarea
              id={`${id}-${key}`}
              className="input org-address-input"
              rows={2}
              maxLength={500}
              value={values[key]}
              onChange={(event) => set(key, event.target.value)}
            />
          ) : (
            <input
              id={`${id}-${key}`}
              className="input"
              type={key === 'email' ? 'email' : key === 'phone' ? 'tel' : 'text'}
              inputMode={key === 'phone' ? 'tel' : undefined}
              autoComplete="off"
              maxLength={key === 'name' ? 200 : key === 'email' ? 254 : 32}
              required={key === 'name'}
              value={values[key]}
              onChange={(event) => set(key, event.target.value)}
            />
          )}
        </Field>
      ))}
    </>
  );
}
