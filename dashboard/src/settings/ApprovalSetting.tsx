// Settings › Workspace: whose posts wait for an owner's or administrator's approval.
import type { Schemas } from '../api.ts';
import { APPROVAL_CREATOR_LABEL, APPROVAL_WORDS } from '../words/approvalWords.ts';

type Creator = Schemas['Workspace']['approvalRequiredFor'][number];
const CREATORS = Object.keys(APPROVAL_CREATOR_LABEL) as Creator[];

export function ApprovalSetting({ value, onChange }: { value: Creator[]; onChange: (next: Creator[]) => void }) {
  return (
    <fieldset className="field" aria-describedby="ws-approval-hint">
      <legend>{APPROVAL_WORDS.settingLegend}</legend>
      {CREATORS.map((creator) => (
        <label key={creator} className="check">
          <input
            type="checkbox"
            checked={value.includes(creator)}
            onChange={(e) => onChange(CREATORS.filter((c) => (c === creator ? e.target.checked : value.includes(c))))}
          />{' '}
          {APPROVAL_CREATOR_LABEL[creator]}
        </label>
      ))}
      <p className="field-hint" id="ws-approval-hint">
        {APPROVAL_WORDS.settingHint}
      </p>
    </fieldset>
  );
}
