// Everything built on this module speaks the vocabulary in Model.
@_exported import Model
