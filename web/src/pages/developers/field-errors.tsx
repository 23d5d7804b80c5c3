/** An API error and, for a 400, the fields it names (`details["body.url"]`: "must use https"). */
import { List, Stack } from '@mantine/core';
import { isApiError } from '../../api/errors.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';

export function ApiErrorWithFields({ error }: { error: unknown }) {
  if (!error) return null;
  const details = isApiError(error) && error.code === 'VALIDATION_ERROR' && error.details ? Object.entries(error.details).filter(([, v]) => typeof v === 'string') : [];
  return (
    <Stack gap="xs">
      <ErrorAlert error={error} />
      {details.length > 0 ? (
        <List size="sm">
          {details.map(([field, message]) => (
            <List.Item key={field}>
              {field.replace(/^body\./, '')}: {String(message)}
            </List.Item>
          ))}
        </List>
      ) : null}
    </Stack>
  );
}
