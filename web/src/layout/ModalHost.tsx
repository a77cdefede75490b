import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';

/** The app-wide modals any header, nav bar or page can open. Row-level modals (edit/delete) live with their lists. */
export type GlobalModal = 'login' | 'signup' | 'createCustomer' | 'createMacro' | 'messageCenter';

interface ModalControls {
  openModal: (modal: GlobalModal) => void;
  closeModal: () => void;
}

const ModalContext = createContext<ModalControls>({ openModal: () => {}, closeModal: () => {} });

export function useModals(): ModalControls {
  return useContext(ModalContext);
}

// Each modal's code loads when it first opens, so the landing page stays small.
const LoginModal = lazy(() => import('../session/LoginForm').then((m) => ({ default: m.LoginModal })));
const SignupModal = lazy(() => import('../session/SignupForm').then((m) => ({ default: m.SignupModal })));
const CreateCustomerModal = lazy(() => import('../customers/CustomerForm').then((m) => ({ default: m.CreateCustomerModal })));
const CreateMacroModal = lazy(() => import('../macros/MacroForm').then((m) => ({ default: m.CreateMacroModal })));
const MessageCenterModal = lazy(() => import('../messages/MessageCenter').then((m) => ({ default: m.MessageCenterModal })));

export function ModalHost({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<GlobalModal | null>(null);
  const closeModal = useCallback(() => setOpen(null), []);
  const controls = useMemo<ModalControls>(() => ({ openModal: setOpen, closeModal }), [closeModal]);
  const location = useLocation();

  // A navigation (e.g. after a modal login) closes whatever was open.
  // eslint-disable-next-line react-hooks/set-state-in-effect -- reacts to the router (an outside change), once per navigation
  useEffect(() => setOpen(null), [location.pathname]);

  return (
    <ModalContext.Provider value={controls}>
      {children}
      <Suspense fallback={null}>
        {open === 'login' && <LoginModal onClose={closeModal} />}
        {open === 'signup' && <SignupModal onClose={closeModal} />}
        {open === 'createCustomer' && <CreateCustomerModal onClose={closeModal} />}
        {open === 'createMacro' && <CreateMacroModal onClose={closeModal} />}
        {open === 'messageCenter' && <MessageCenterModal onClose={closeModal} />}
      </Suspense>
    </ModalContext.Provider>
  );
}
