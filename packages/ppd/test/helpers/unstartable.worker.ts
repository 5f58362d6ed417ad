// A pool worker that dies while starting, as one would with a broken install.
throw new Error('cannot load the engine');
