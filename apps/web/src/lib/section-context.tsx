import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { DEFAULT_SECTION, parseSection, type Section } from './sections';

/**
 * The current section lives here (app state, no URL routes).
 *
 * To switch section from inside a page (e.g. Home's "Start prediction" button):
 *   const navigate = useNavigateSection();
 *   <Button onClick={() => navigate('prediction')} />
 * Any value is accepted; an unknown one falls back to images, as the spec says.
 * `useCurrentSection()` reads the current one.
 */
interface SectionState {
  section: Section;
  navigate: (section: Section | string) => void;
}

const SectionContext = createContext<SectionState | null>(null);

export function SectionProvider({ children, initial = DEFAULT_SECTION }: { children: ReactNode; initial?: Section }) {
  const [section, setSection] = useState<Section>(initial);
  const value = useMemo<SectionState>(
    () => ({
      section,
      navigate: (next) => {
        setSection(parseSection(next));
        window.scrollTo({ top: 0 });
      },
    }),
    [section],
  );
  return <SectionContext.Provider value={value}>{children}</SectionContext.Provider>;
}

function useSectionState(): SectionState {
  const state = useContext(SectionContext);
  if (!state) throw new Error('useNavigateSection/useCurrentSection must be used inside <SectionProvider>');
  return state;
}

export function useNavigateSection(): SectionState['navigate'] {
  return useSectionState().navigate;
}

export function useCurrentSection(): Section {
  return useSectionState().section;
}
