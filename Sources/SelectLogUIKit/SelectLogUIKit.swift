// The integration guide's UIKit code; compiled only where UIKit exists.
#if canImport(UIKit)
import UIKit
#endif
