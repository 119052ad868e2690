import { create } from 'zustand';

/** Toast of transaction-data §3. Two independent ones exist: the normal toast and the info toast. */
export type Toast = {
  show: boolean;
  message: string;
  duration: number;
  position: 'top-right' | 'top-left' | 'bottom-right' | 'bottom-left';
  buttonText: string;
  pauseOnHover: boolean;
  onDismiss?: () => void;
  onClick?: () => void;
  onButtonClick?: () => void;
};

export const TOAST_DEFAULT_DURATION = 5000;

const hidden: Toast = { show: false, message: '', duration: TOAST_DEFAULT_DURATION, position: 'top-right', buttonText: '', pauseOnHover: true };

type ToastOptions = Partial<Omit<Toast, 'show' | 'message'>>;
type State = {
  toast: Toast;
  info: Toast;
  showToast(message: string, options?: ToastOptions): void;
  hideToast: () => void;
  showInfoToast(message: string, options?: ToastOptions): void;
  hideInfoToast: () => void;
};

export const useToasts = create<State>()((set) => ({
  toast: hidden,
  info: hidden,
  showToast: (message, options) => set({ toast: { ...hidden, ...options, show: true, message } }),
  // hiding resets the message and the button text
  hideToast: () => set((s) => ({ toast: { ...s.toast, show: false, message: '', buttonText: '' } })),
  showInfoToast: (message, options) => set({ info: { ...hidden, ...options, show: true, message } }),
  hideInfoToast: () => set((s) => ({ info: { ...s.info, show: false, message: '', buttonText: '' } })),
}));

export const toast = {
  show: (message: string, options?: ToastOptions) => useToasts.getState().showToast(message, options),
  info: (message: string, options?: ToastOptions) => useToasts.getState().showInfoToast(message, options),
};
