// Dragging needs a mouse or a pen: on a touch screen a page says how to do the same with its buttons instead.
export const canDrag = (): boolean => window.matchMedia('(pointer: fine)').matches;
