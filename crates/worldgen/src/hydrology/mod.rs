//! Hydrology: the next stage of the pipeline, not written yet. Generator version 5 will
//! put its drainage network here, between the land's shape (`shape`) and the surface
//! (`surface`): rivers that run downhill from their sources to the sea, lakes where
//! the water gathers, and waterfalls where it drops. Today's rivers (version 2) are
//! channels along the weirdness noise's zero line, cut in `shape::climate`.
