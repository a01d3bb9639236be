/// A stash entry: one yarn the crafter owns or owned, with what is known of it.
///
/// Every text field but `name` may be unknown (`nil`); an empty string is not used for unknown.
public struct Yarn: Codable, Hashable, Sendable, Identifiable {
  /// A stable identifier, a lower-case UUID (RFC 9562) unless imported from elsewhere.
  public var id: String
  /// The product name, such as `Cascade 220`.
  public var name: String
  /// The maker, such as `Cascade Yarns`.
  public var brand: String?
  /// The colorway: the maker's name for the color, such as `Ruby`.
  public var colorway: String?
  /// A broad color family for sorting, such as `red`.
  public var colorFamily: String?
  /// The dye lot printed on the ball band.
  public var dyeLot: String?
  /// The CYC yarn weight category (see `YarnWeight`), or `nil` when unknown.
  public var weight: YarnWeight?
  /// The fiber content as written on the band, such as `100% Peruvian highland wool`.
  public var fiber: String?
  /// The length of one skein (`yd` or `m`), as the ball band gives it.
  public var lengthPerSkein: Amount?
  /// The net weight of one skein (`g`, `kg`, `oz` or `lb`), as the ball band gives it.
  public var netWeightPerSkein: Amount?
  /// How much the crafter bought, in any unit (usually skeins).
  public var quantity: Amount?
  /// What the crafter says is left, in any unit, overriding the estimate
  /// (`RemainingEstimate.Source.override`).
  public var remainingOverride: Amount?
  /// Where it was bought.
  public var purchaseLocation: String?
  /// The day it was added to the stash (a local calendar day, no time zone).
  public var dateAdded: CalendarDate?
  /// Whether it is still in the stash (false once used up or given away).
  public var isStashed: Bool
  /// Photos, in the order they were attached.
  public var photos: [Attachment]

  /// A yarn; everything but its ID and name may be left out (unknown), and it is in the
  /// stash unless `isStashed` is false.
  public init(
    id: String, name: String, brand: String? = nil, colorway: String? = nil,
    colorFamily: String? = nil, dyeLot: String? = nil, weight: YarnWeight? = nil,
    fiber: String? = nil, lengthPerSkein: Amount? = nil, netWeightPerSkein: Amount? = nil,
    quantity: Amount? = nil, remainingOverride: Amount? = nil, purchaseLocation: String? = nil,
    dateAdded: CalendarDate? = nil, isStashed: Bool = true, photos: [Attachment] = []
  ) {
    self.id = id
    self.name = name
    self.brand = brand
    self.colorway = colorway
    self.colorFamily = colorFamily
    self.dyeLot = dyeLot
    self.weight = weight
    self.fiber = fiber
    self.lengthPerSkein = lengthPerSkein
    self.netWeightPerSkein = netWeightPerSkein
    self.quantity = quantity
    self.remainingOverride = remainingOverride
    self.purchaseLocation = purchaseLocation
    self.dateAdded = dateAdded
    self.isStashed = isStashed
    self.photos = photos
  }

  /// The put-up facts used by conversions: `lengthPerSkein` and `netWeightPerSkein`.
  public var putUp: PutUp {
    PutUp(lengthPerSkein: lengthPerSkein, netWeightPerSkein: netWeightPerSkein)
  }
}
