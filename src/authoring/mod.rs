//! Authoring problems: starting a new one from the template in `template/`.

mod scaffold;

pub use scaffold::scaffold;
