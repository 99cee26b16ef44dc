// Shared by screens.test.tsx, screens-settings.test.tsx and screens-assets.test.tsx: typing into
// a labelled field.
import { fireEvent, screen } from '@testing-library/preact';

export function type(label: string | RegExp, value: string) {
  fireEvent.input(screen.getByLabelText(label), { target: { value } });
}
