// Drop files here, or pick them with the file dialog (the button is the keyboard way in).
import { useRef, useState, type DragEvent } from 'react';
import { Button } from '../ui.tsx';

export function DropZone({ onFiles, compact }: { onFiles: (files: FileList) => void; compact?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (e.dataTransfer.files.length) onFiles(e.dataTransfer.files);
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: keyboards use the Choose files button.
    <div
      className={`dropzone ${over ? 'over' : ''} ${compact ? 'compact' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <p>{compact ? 'Drop images or videos here, or' : 'Drop images and videos here to upload them, or'}</p>
      <Button onClick={() => input.current?.click()}>Choose files</Button>
      <input
        ref={input}
        type="file"
        multiple
        accept="image/*,video/*"
        hidden
        aria-label="Files to upload"
        onChange={(e) => {
          if (e.target.files?.length) onFiles(e.target.files);
          e.target.value = '';
        }}
      />
    </div>
  );
}
